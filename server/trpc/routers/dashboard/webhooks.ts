import { z } from "zod";
import {
  createEndpoint,
  listDeliveries,
  listEndpoints,
  removeEndpoint,
  rotateSecret,
  updateEndpoint,
} from "@/server/webhooks/endpoints";
import { sendTestEvent } from "@/server/webhooks/emit";
import { CreateEndpointInput, UpdateEndpointInput } from "@/server/webhooks/webhooks.schema";
import { projectProcedure, router } from "../../init";

const ProjectInput = z.object({ projectId: z.uuid() });
const EndpointInput = ProjectInput.extend({ endpointId: z.uuid() });

/**
 * A project's webhook endpoints. Admins only, reading included: an endpoint says where the project's events go.
 * The signing secret is in the answers of create and rotateSecret only.
 */
export const webhooksRouter = router({
  list: projectProcedure("admin")
    .input(ProjectInput)
    .query(({ ctx }) => listEndpoints(ctx.projectId)),

  create: projectProcedure("admin")
    .input(ProjectInput.extend(CreateEndpointInput.shape))
    .mutation(({ ctx, input }) =>
      createEndpoint(
        ctx.projectId,
        { url: input.url, description: input.description, events: input.events },
        ctx.userId,
      ),
    ),

  update: projectProcedure("admin")
    .input(EndpointInput.extend(UpdateEndpointInput.shape))
    .mutation(({ ctx, input: { endpointId, url, description, events, enabled } }) =>
      updateEndpoint(ctx.projectId, endpointId, { url, description, events, enabled }),
    ),

  rotateSecret: projectProcedure("admin")
    .input(EndpointInput)
    .mutation(({ ctx, input }) => rotateSecret(ctx.projectId, input.endpointId)),

  remove: projectProcedure("admin")
    .input(EndpointInput)
    .mutation(({ ctx, input }) => removeEndpoint(ctx.projectId, input.endpointId)),

  sendTest: projectProcedure("admin")
    .input(EndpointInput)
    .mutation(({ ctx, input }) => sendTestEvent(ctx.projectId, input.endpointId)),

  /** The newest deliveries (50), of one endpoint or of all. */
  deliveries: projectProcedure("admin")
    .input(ProjectInput.extend({ endpointId: z.uuid().optional() }))
    .query(({ ctx, input }) => listDeliveries(ctx.projectId, input.endpointId)),
});
