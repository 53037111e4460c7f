-- CreateTable
CREATE TABLE "password_reset_limits" (
    "key" TEXT NOT NULL,
    "count" INTEGER NOT NULL,
    "window_start" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "password_reset_limits_pkey" PRIMARY KEY ("key")
);

-- CreateIndex
CREATE INDEX "password_reset_limits_window_start_idx" ON "password_reset_limits"("window_start");
