export { createBuiltinWriter, type BuiltinWriterOptions } from './builtin/writer.ts';
export { createOpenAiWriter, type OpenAiWriterOptions } from './openai/writer.ts';
export { pitchMarkdown } from './markdown.ts';
export { checkPitch, validatePitchFor, type PitchCheck } from './validate.ts';
export { PitchWriterError, type PitchComment, type PitchWriter, type PitchWriterFailure, type WriteInput } from './writer.ts';
