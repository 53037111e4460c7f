import { z } from "zod";
import { CreateProviderInput, UpdateProviderInput } from "@/server/model-providers/model-providers.schema";
import {
  createProvider,
  listProviders,
  removeProvider,
  testProvider,
  updateProvider,
} from "@/server/model-providers/service";
import { router, teamProcedure } from "../../init";

const TeamInput = z.object({ teamId: z.uuid() });
const ProviderInput = TeamInput.extend({ providerId: z.uuid() });

/**
 * A team's model providers. Admins only, reading included: a provider's address and key prefix say where the team's
 * data goes. No procedure returns a key; the views have no field for one.
 */
export const modelProvidersRouter = router({
  list: teamProcedure("admin")
    .input(TeamInput)
    .query(({ input }) => listProviders(input.teamId)),

  create: teamProcedure("admin")
    .input(TeamInput.extend(CreateProviderInput.shape))
    .mutation(({ ctx, input: { teamId, ...provider } }) => createProvider(teamId, provider, ctx.userId)),

  update: teamProcedure("admin")
    .input(ProviderInput.extend(UpdateProviderInput.shape))
    .mutation(({ input: { teamId, providerId, ...changes } }) => updateProvider(teamId, providerId, changes)),

  remove: teamProcedure("admin")
    .input(ProviderInput)
    .mutation(({ input }) => removeProvider(input.teamId, input.providerId)),

  /** One cheap call to the provider; refreshes its model list. */
  test: teamProcedure("admin")
    .input(ProviderInput)
    .mutation(({ input }) => testProvider(input.teamId, input.providerId)),
});
