// The workflow bundle: workflows only (each file imports @temporalio/workflow and contracts only).
export { productionWorkflow } from './production.ts';
