import { z } from "zod";
import { CreateEndpointInput, UpdateEndpointInput } from "@/server/webhooks/webhooks.schema";

/**
 * Request shapes of /api/public/v1/webhooks (an extension beside the contract, like the dashboard's Webhooks page:
 * the same rules, snake_case on the wire). The endpoint id comes from the path as any string: one that is not an
 * id is answered as an endpoint that does not exist.
 */

export const CreateWebhookInput = CreateEndpointInput;

export const EndpointPathInput = z.object({ endpoint_id: z.string() });

export const UpdateWebhookInput = EndpointPathInput.extend({ body: UpdateEndpointInput });
