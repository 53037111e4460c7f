import { router } from "../../init";
import { accountRouter } from "./account";
import { answersRouter } from "./answers";
import { connectorsRouter } from "./connectors";
import { evaluationRouter } from "./evaluation";
import { flowFilesRouter } from "./flow-files";
import { flowsRouter } from "./flows";
import { modelProvidersRouter } from "./model-providers";
import { projectModelsRouter } from "./project-models";
import { projectsRouter } from "./projects";
import { searchRouter } from "./search";
import { sourcesRouter } from "./sources";
import { teamsRouter } from "./teams";
import { tokensRouter } from "./tokens";
import { usageRouter } from "./usage";
import { webhooksRouter } from "./webhooks";

/**
 * The dashboard's procedures (session cookie). Every one sits on a rung of the ladder in init.ts: `authedProcedure`
 * (signed in), `teamProcedure(role)` or `projectProcedure(role)` (member of the team with at least that role).
 */
export const dashboardRouter = router({
  account: accountRouter,
  teams: teamsRouter,
  projects: projectsRouter,
  sources: sourcesRouter,
  search: searchRouter,
  answers: answersRouter,
  tokens: tokensRouter,
  connectors: connectorsRouter,
  flows: flowsRouter,
  flowFiles: flowFilesRouter,
  evaluation: evaluationRouter,
  modelProviders: modelProvidersRouter,
  projectModels: projectModelsRouter,
  usage: usageRouter,
  webhooks: webhooksRouter,
});
