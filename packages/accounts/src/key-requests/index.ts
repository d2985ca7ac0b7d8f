// The device flow (spec: "Key request (device flow)", "Device key request"): a tool asks, a person
// approves in the app, the tool's first poll after that claims the key.
export * from './codes.ts';
export * from './deps.ts';
export * from './requests.ts';
export * from './approval.ts';
export * from './steps.ts';
