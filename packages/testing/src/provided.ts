// What the run's global setup provides to every test file (vitest `inject`).
declare module 'vitest' {
  export interface ProvidedContext {
    postgresServerUrl: string;
    templateDatabase: string;
    temporalAddress: string;
    workflowBundlePath: string;
  }
}

export {};
