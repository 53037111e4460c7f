import { z } from "zod";
import { AppError } from "@/server/errors";
import { checked } from "@/server/public-api/checked";
import { toDeliveryDto, toEndpointDto } from "@/server/public-api/v1/webhooks/mappers";
import {
  CreateWebhookInput,
  EndpointPathInput,
  UpdateWebhookInput,
} from "@/server/public-api/v1/webhooks/requests.schema";
import {
  WebhookDeletedResponse,
  WebhookDeliveriesResponse,
  WebhookDeliveryResponse,
  WebhookEndpointResponse,
  WebhookListResponse,
  WebhookSecretResponse,
} from "@/server/public-api/v1/webhooks/responses.schema";
import { sendTestEvent } from "@/server/webhooks/emit";
import {
  createEndpoint,
  getEndpoint,
  listDeliveries,
  listEndpoints,
  removeEndpoint,
  rotateSecret,
  updateEndpoint,
} from "@/server/webhooks/endpoints";
import { apiProcedure, router } from "../init";

/** An id from the path that is not one names no endpoint: the same 404 as another project's. */
const endpointId = (raw: string) => {
  if (!z.uuid().safeParse(raw).success) throw new AppError("NOT_FOUND", "Webhook endpoint not found");
  return raw;
};

/**
 * /api/public/v1/webhooks: the dashboard's webhook procedures for a project token. Every call needs `write`
 * (reading included: an endpoint says where the project's events go, and its log what happened).
 */
export const publicWebhooksRouter = router({
  list: apiProcedure("write")
    .output(checked(WebhookListResponse))
    .query(async ({ ctx }) => ({ items: (await listEndpoints(ctx.projectId)).map(toEndpointDto) })),

  create: apiProcedure("write")
    .input(CreateWebhookInput)
    .output(checked(WebhookSecretResponse))
    .mutation(async ({ ctx, input }) => {
      const { endpoint, secret } = await createEndpoint(ctx.projectId, input, null);
      return { ...toEndpointDto(endpoint), secret };
    }),

  get: apiProcedure("write")
    .input(EndpointPathInput)
    .output(checked(WebhookEndpointResponse))
    .query(async ({ ctx, input }) => toEndpointDto(await getEndpoint(ctx.projectId, endpointId(input.endpoint_id)))),

  update: apiProcedure("write")
    .input(UpdateWebhookInput)
    .output(checked(WebhookEndpointResponse))
    .mutation(async ({ ctx, input }) =>
      toEndpointDto(await updateEndpoint(ctx.projectId, endpointId(input.endpoint_id), input.body)),
    ),

  remove: apiProcedure("write")
    .input(EndpointPathInput)
    .output(checked(WebhookDeletedResponse))
    .mutation(async ({ ctx, input }) => {
      const id = endpointId(input.endpoint_id);
      await removeEndpoint(ctx.projectId, id);
      return { id, deleted: true as const };
    }),

  rotateSecret: apiProcedure("write")
    .input(EndpointPathInput)
    .output(checked(WebhookSecretResponse))
    .mutation(async ({ ctx, input }) => {
      const { endpoint, secret } = await rotateSecret(ctx.projectId, endpointId(input.endpoint_id));
      return { ...toEndpointDto(endpoint), secret };
    }),

  sendTest: apiProcedure("write")
    .input(EndpointPathInput)
    .output(checked(WebhookDeliveryResponse))
    .mutation(async ({ ctx, input }) =>
      toDeliveryDto(await sendTestEvent(ctx.projectId, endpointId(input.endpoint_id))),
    ),

  deliveries: apiProcedure("write")
    .input(EndpointPathInput)
    .output(checked(WebhookDeliveriesResponse))
    .query(async ({ ctx, input }) => ({
      items: (await listDeliveries(ctx.projectId, endpointId(input.endpoint_id))).map(toDeliveryDto),
    })),
});
