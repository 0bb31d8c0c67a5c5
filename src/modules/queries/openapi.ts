// The queries module's operations in Gatehouse's API document (format: src/openapi/operations.ts).
import { defineOperations } from '../../openapi/operations.ts';

export const queryOperations = defineOperations('queries', {});
