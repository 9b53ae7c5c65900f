import type { PayFastCheckout } from './credit-types';

/**
 * Posts the signed checkout to PayFast with a real form, so the browser leaves for PayFast's page
 * exactly as PayFast expects (a top-level POST of the signed fields, nothing rewritten). If the page's
 * Content-Security-Policy refuses the destination (form-action), the browser stays here silently:
 * `onBlocked` lets the page say so instead of waiting forever.
 */
export function submitPayFastForm(checkout: PayFastCheckout, onBlocked: () => void): void {
  const action = new URL(checkout.action);
  // The form's target comes from our server; refuse anything but https so a bad answer cannot run script.
  if (action.protocol !== 'https:') throw new Error(`PayFast checkout address is not https: ${checkout.action}`);
  const form = document.createElement('form');
  form.method = checkout.method || 'POST';
  form.action = action.href;
  form.hidden = true;
  for (const [name, value] of Object.entries(checkout.fields)) {
    const input = document.createElement('input');
    input.type = 'hidden';
    input.name = name;
    input.value = value;
    form.append(input);
  }
  const onViolation = (event: SecurityPolicyViolationEvent) => {
    if (event.effectiveDirective !== 'form-action') return;
    document.removeEventListener('securitypolicyviolation', onViolation);
    form.remove();
    onBlocked();
  };
  document.addEventListener('securitypolicyviolation', onViolation);
  document.body.append(form);
  form.submit();
}
