import { headerLagsLiveStatus } from './header-lag';

describe('headerLagsLiveStatus', () => {
  it('is behind when the header was read before the run ended', () => {
    expect(headerLagsLiveStatus('stopped', 'running')).toBe(true);
    expect(headerLagsLiveStatus('completed', 'paused')).toBe(true);
  });

  it('is not behind when both say the same, or a paused header where the events say running', () => {
    expect(headerLagsLiveStatus('stopped', 'stopped')).toBe(false);
    expect(headerLagsLiveStatus('running', 'paused')).toBe(false);
  });

  it('cannot say before both are known', () => {
    expect(headerLagsLiveStatus(undefined, 'running')).toBe(false);
    expect(headerLagsLiveStatus('running', undefined)).toBe(false);
  });
});
