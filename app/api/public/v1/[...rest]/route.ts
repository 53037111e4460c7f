import { DETAIL, detailResponse } from "@/server/public-api/errors";

export const dynamic = "force-dynamic";

/** Unknown public paths answer in the contract's shape instead of Next's HTML 404. */
const notFound = async () => detailResponse(404, DETAIL.notFound);
export { notFound as GET, notFound as POST, notFound as PUT, notFound as PATCH, notFound as DELETE };
