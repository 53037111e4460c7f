import { afterEach, describe, expect, it } from "vitest";
import { setRuntimeEnv } from "../../env";
import { drawScannedPage, startFakeVisionServer } from "../../parsing/vision/test-fixtures";
import type { ChatMessage } from "../chat";
import { getChatTarget } from "../chat";
import { getSpeechModel } from "../speech";
import { getVisionModel } from ".";

const SETTINGS = [
  "VISION_MODEL",
  "VISION_BASE_URL",
  "VISION_API_KEY",
  "LLM_PROVIDER",
  "LLM_BASE_URL",
  "LLM_API_KEY",
  "LLM_MODEL",
  "SPEECH_BASE_URL",
  "SPEECH_API_KEY",
  "SPEECH_MODEL",
] as const;

afterEach(() => {
  for (const key of SETTINGS) setRuntimeEnv(key, "");
});

describe("registries read the settings a .env already has", () => {
  it("vision: VISION_MODEL, its base URL and key defaulting to the LLM ones; none without VISION_MODEL", () => {
    expect(getVisionModel()).toBeNull();
    setRuntimeEnv("VISION_MODEL", "gpt-4o");
    setRuntimeEnv("LLM_BASE_URL", "http://llm.test/v1");
    setRuntimeEnv("LLM_API_KEY", "sk-llm");
    expect(getVisionModel()).toMatchObject({
      id: "gpt-4o",
      config: { baseUrl: "http://llm.test/v1", apiKey: "sk-llm", model: "gpt-4o" },
    });
    setRuntimeEnv("VISION_BASE_URL", "http://vision.test/v1");
    setRuntimeEnv("VISION_API_KEY", "sk-vision");
    expect(getVisionModel()?.config).toEqual({
      baseUrl: "http://vision.test/v1",
      apiKey: "sk-vision",
      model: "gpt-4o",
    });
  });

  it("speech: SPEECH_BASE_URL turns it on, SPEECH_MODEL defaults to whisper-1", () => {
    expect(getSpeechModel()).toBeNull();
    setRuntimeEnv("SPEECH_BASE_URL", "http://speech.test/v1");
    expect(getSpeechModel()).toMatchObject({ id: "whisper-1", config: { baseUrl: "http://speech.test/v1" } });
    setRuntimeEnv("SPEECH_API_KEY", "sk-speech");
    setRuntimeEnv("SPEECH_MODEL", "whisper-large-v3");
    expect(getSpeechModel()?.config).toEqual({
      baseUrl: "http://speech.test/v1",
      apiKey: "sk-speech",
      model: "whisper-large-v3",
    });
  });

  it("build-time chat: LLM_PROVIDER=openai with LLM_BASE_URL, LLM_API_KEY, LLM_MODEL; none with local", () => {
    expect(getChatTarget()).toBeNull();
    setRuntimeEnv("LLM_PROVIDER", "openai");
    setRuntimeEnv("LLM_BASE_URL", "http://llm.test/v1");
    setRuntimeEnv("LLM_API_KEY", "sk-llm");
    setRuntimeEnv("LLM_MODEL", "llama3.1:8b");
    expect(getChatTarget()).toEqual({ baseUrl: "http://llm.test/v1", apiKey: "sk-llm", model: "llama3.1:8b" });
  });
});

describe("a vision model", () => {
  it("asks in JSON mode, and a failure names the model with the retryable provider error as its cause", async () => {
    let status = 200;
    const server = await startFakeVisionServer(() =>
      status === 200 ? { status: 200, content: '{"elements":[]}' } : { status, error: "slow down" },
    );
    try {
      setRuntimeEnv("VISION_MODEL", "fake-vision");
      setRuntimeEnv("VISION_BASE_URL", server.baseUrl);
      const model = getVisionModel()!;
      const png = drawScannedPage(200, 250).toString("base64");
      const messages: ChatMessage[] = [
        {
          role: "user",
          content: [
            { type: "text", text: "Page 1" },
            { type: "image_url", image_url: { url: `data:image/png;base64,${png}` } },
          ],
        },
      ];
      const reply = await model.completeJson({ messages });
      expect(reply).toEqual({ text: `{"elements":[]}`, model: "fake-vision-2025-01-01" });
      expect(server.requests[0]).toMatchObject({ jsonMode: true, model: "fake-vision" });
      status = 429;
      const error = await model.completeJson({ messages }).catch((e) => e);
      expect(error).toMatchObject({
        code: "UNPROCESSABLE",
        message: "The model fake-vision failed (HTTP 429): slow down",
      });
      expect((error as Error).cause).toMatchObject({ retryable: true, status: 429 });
    } finally {
      await server.close();
    }
  });
});
