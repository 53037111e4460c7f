import { searchProject } from "@/server/retrieval/dashboard-search";
import { SearchInput } from "@/server/retrieval/search.schema";
import { projectProcedure, router } from "../../init";

export const searchRouter = router({
  query: projectProcedure("viewer")
    .input(SearchInput)
    .query(({ ctx, input }) => searchProject({ ...input, projectId: ctx.projectId })),
});
