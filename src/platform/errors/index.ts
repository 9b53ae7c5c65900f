export { AppError } from './app-error';
export { PLATFORM_ERRORS } from './error-codes';
export {
  defineErrorCodes,
  findErrorCode,
  type ErrorCodeEntry,
  type ErrorCodeSpec,
  type ErrorTable,
} from './error-table';
