import { z } from "zod";

/** Response shapes of the legacy sources endpoints (contract §2.5, §6) and page screenshots (§5.11). */

/** §2.5: a LangChain-style document whose metadata carries the element. */
const LegacyElement = z.strictObject({
  id: z.null(),
  page_content: z.string(),
  type: z.literal("Document"),
  metadata: z.strictObject({
    element_id: z.string(),
    element_type: z.string(),
    page_number: z.number().nullable(),
    position: z.number(),
    filename: z.string(),
    filetype: z.string().nullable(),
    languages: z.array(z.string()),
    last_modified: z.string(),
    text_as_html: z.string().nullable(),
    coordinates: z
      .strictObject({
        points: z.array(z.array(z.number())),
        system: z.string(),
        layout_width: z.number().nullable(),
        layout_height: z.number().nullable(),
      })
      .nullable(),
  }),
});

export const LegacyElementsResponse = z.strictObject({
  items: z.array(LegacyElement),
  total: z.number(),
  page: z.number().nullable(),
  page_size: z.number().nullable(),
  total_pages: z.number().nullable(),
});

export const ScreenshotResponse = z.strictObject({
  file_id: z.string(),
  file_name: z.string(),
  page_number: z.number(),
  mime_type: z.literal("image/png"),
  width: z.number(),
  height: z.number(),
  image_base64: z.string(),
});
