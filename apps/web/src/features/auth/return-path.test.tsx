import { afterEach, describe, expect, it } from 'vitest';
import { authPath, clearPendingReturnPath, pendingReturnPath, safeReturnPath } from './return-path.js';

const ORIGIN = 'https://prodshot.example';

afterEach(() => sessionStorage.clear());

describe('safeReturnPath', () => {
  it('keeps a path on this site, with its query and hash', () => {
    expect(safeReturnPath('/checkout?plan=pro', ORIGIN)).toBe('/checkout?plan=pro');
    expect(safeReturnPath('/checkout/addon?plan=addon-500#pay', ORIGIN)).toBe('/checkout/addon?plan=addon-500#pay');
    expect(safeReturnPath('/a/../pricing', ORIGIN)).toBe('/pricing');
  });

  it.each([
    ['absent', null],
    ['empty', ''],
    ['absolute', 'https://evil.example/checkout'],
    ['scheme-relative', '//evil.example'],
    ['backslash', '/\\evil.example'],
    ['encoded-looking backslash', '/\\/evil.example'],
    ['tab inside', '/\t/evil.example'],
    ['javascript', 'javascript:alert(1)'],
    ['relative', 'checkout?plan=pro'],
  ])('sends %s to the dashboard', (_case, value) => {
    expect(safeReturnPath(value, ORIGIN)).toBe('/dashboard');
  });
});

describe('the pending return path', () => {
  it('keeps the address one for the steps that lose it, until signed in', () => {
    expect(pendingReturnPath('/checkout?plan=pro')).toBe('/checkout?plan=pro');
    expect(pendingReturnPath(null)).toBe('/checkout?plan=pro');
    clearPendingReturnPath();
    expect(pendingReturnPath(null)).toBe('/dashboard');
  });

  it('never keeps a path off the site', () => {
    expect(pendingReturnPath('//evil.example')).toBe('/dashboard');
    expect(pendingReturnPath(null)).toBe('/dashboard');
  });
});

it('builds the sign-in and sign-up addresses with the return path encoded', () => {
  expect(authPath('sign-in', '/checkout?plan=pro')).toBe('/sign-in?redirect_url=%2Fcheckout%3Fplan%3Dpro');
  expect(authPath('sign-up', '/checkout?plan=pro')).toBe('/sign-up?redirect_url=%2Fcheckout%3Fplan%3Dpro');
});
