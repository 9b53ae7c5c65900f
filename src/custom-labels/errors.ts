import { AppError } from '../platform/errors';
import { CUSTOM_LABELS_ERRORS } from './error-codes';

/** The account already keeps MAX_CUSTOM_LABELS_PER_ACCOUNT labels: one more is 409 CUSTOM_LABEL_LIMIT_REACHED. */
export class CustomLabelLimitReachedError extends AppError {
  constructor(readonly limit: number) {
    super(
      CUSTOM_LABELS_ERRORS.CUSTOM_LABEL_LIMIT_REACHED,
      `An account keeps at most ${limit} custom labels: delete one first`,
    );
  }
}
