import { searchProject } from "@/server/search/dashboard-search";
import { SearchInput } from "@/server/search/search.schema";
import { projectProcedure, router } from "../../init";

export const searchRouter = router({
  query: projectProcedure("viewer")
    .input(SearchInput)
    .query(({ ctx, input }) => searchProject({ ...input, projectId: ctx.projectId })),
});
