/** The file a Temporal worker bundles: every workflow, nothing else. */
export const workflowsPath = new URL('./index.ts', import.meta.url).pathname;
