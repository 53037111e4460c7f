import type { BuildOptions } from "./build-options-fields";

/**
 * Uploads one file to the dashboard's upload route. XMLHttpRequest rather than fetch: fetch cannot report upload
 * progress. The browser sets Content-Length for FormData bodies, which the route requires, and Origin, which it checks.
 */
export const uploadSource = ({
  projectId,
  file,
  options,
  onProgress,
}: {
  projectId: string;
  file: File;
  options: BuildOptions;
  /** Fraction sent, 0..1. */
  onProgress: (fraction: number) => void;
}): Promise<{ buildId: string }> =>
  new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open("POST", `/api/projects/${encodeURIComponent(projectId)}/upload`);
    xhr.responseType = "json";
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) onProgress(event.loaded / event.total);
    };
    xhr.onload = () => {
      const body = xhr.response as { buildId?: string; detail?: string } | null;
      if (xhr.status >= 200 && xhr.status < 300 && body?.buildId) resolve({ buildId: body.buildId });
      else reject(new Error(body?.detail ?? `Upload failed (HTTP ${xhr.status})`));
    };
    xhr.onerror = () => reject(new Error("Upload failed: the server could not be reached"));
    xhr.onabort = () => reject(new Error("Upload was cancelled"));

    const form = new FormData();
    form.append("method", options.method);
    form.append("enrichment", options.enrichment);
    form.append("indexing", options.indexing);
    form.append("file", file);
    xhr.send(form);
  });
