import { describe, expect, it } from "vitest";
import { FlowStatus } from "../generated/prisma/enums";
import { flowStatusLabel } from "./flow-status";

describe("flowStatusLabel", () => {
  it("shows each status with the words the API and the dashboard always used", () => {
    expect(Object.values(FlowStatus).map(flowStatusLabel)).toEqual(["New", "Not deployed", "Deployed", "Failed"]);
  });
});
