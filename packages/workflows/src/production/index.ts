export { productionWorkflow } from './workflow.ts';
