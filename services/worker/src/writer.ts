import type { Config } from '@vp/config';
import { createBuiltinWriter, createOpenAiWriter, type PitchWriter } from '@vp/pitch';

/** The pitch writer the configuration names. */
export function writerFromConfig(config: Config): PitchWriter {
  const w = config.pitchWriter;
  return w.kind === 'openai'
    ? createOpenAiWriter({ baseUrl: w.baseUrl, apiKey: w.apiKey, model: w.model, timeoutMs: w.timeoutMs })
    : createBuiltinWriter();
}
