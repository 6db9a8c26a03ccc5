import { roleOf } from './oidc-sign-in';
import { cookieHeader, cookieValue } from './session-cookie';

describe('the sign-in cookie (issue 27)', () => {
  it('reads one cookie among others, from one header or several, and nothing from a look-alike name', () => {
    expect(cookieValue('a=1; switchboard_session=abc%2Bdef; b=2', 'switchboard_session')).toBe('abc+def');
    expect(cookieValue(['a=1', 'switchboard_session=xyz'], 'switchboard_session')).toBe('xyz');
    expect(cookieValue('my_switchboard_session=evil', 'switchboard_session')).toBeUndefined();
    expect(cookieValue('switchboard_session=%E0%A4%A', 'switchboard_session')).toBeUndefined();
    expect(cookieValue(undefined, 'switchboard_session')).toBeUndefined();
  });

  it('is always HttpOnly and SameSite=Lax, Secure when the console is served over https', () => {
    expect(cookieHeader('s', 'v', { path: '/', maxAgeSeconds: 60, secure: true })).toBe('s=v; Path=/; Max-Age=60; HttpOnly; SameSite=Lax; Secure');
    expect(cookieHeader('s', 'v', { path: '/auth', maxAgeSeconds: 0, secure: false })).toBe('s=v; Path=/auth; Max-Age=0; HttpOnly; SameSite=Lax');
  });
});

describe('the role a roles claim gives (issue 27)', () => {
  it('takes the last of viewer, operator, approver, admin the claim names, any case; none known: the default', () => {
    expect(roleOf(['viewer', 'Admin'], 'viewer')).toBe('admin');
    expect(roleOf('operator', 'viewer')).toBe('operator');
    expect(roleOf(['staff', 42], 'approver')).toBe('approver');
    expect(roleOf(undefined, 'viewer')).toBe('viewer');
  });
});
