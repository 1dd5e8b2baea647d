// spec §4 "Session", §9 "Idle timeout 10 minutes (20 on hosts containing dev), with a 2-second
// debounce": the countdown, the debounce of activity, once per idle period, and stopping.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ACTIVITY_DEBOUNCE_MS, DEV_IDLE_TIMEOUT_MS, IDLE_TIMEOUT_MS, idleTimeoutMs, watchIdle } from './idleTimer';

const MINUTE = 60 * 1000;

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

function watch(timeoutMs = IDLE_TIMEOUT_MS) {
  const target = new EventTarget();
  const onIdle = vi.fn();
  const stop = watchIdle({ timeoutMs, onIdle, target });
  const act = (name = 'mousemove') => target.dispatchEvent(new Event(name));
  return { onIdle, stop, act };
}

describe('the idle timeout', () => {
  it('is 10 minutes, 20 on a host whose name contains dev', () => {
    expect(IDLE_TIMEOUT_MS).toBe(10 * MINUTE);
    expect(DEV_IDLE_TIMEOUT_MS).toBe(20 * MINUTE);
    expect(ACTIVITY_DEBOUNCE_MS).toBe(2000);
    expect(idleTimeoutMs('evidentia.app')).toBe(10 * MINUTE);
    expect(idleTimeoutMs('localhost')).toBe(10 * MINUTE);
    expect(idleTimeoutMs('dev.evidentia.app')).toBe(20 * MINUTE);
    expect(idleTimeoutMs('web-dev.example.com')).toBe(20 * MINUTE);
  });
});

describe('watching for idle', () => {
  it('reports idle once the timeout passes without activity', () => {
    const { onIdle } = watch();
    vi.advanceTimersByTime(10 * MINUTE - 1);
    expect(onIdle).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(onIdle).toHaveBeenCalledTimes(1);
  });

  it('restarts the countdown 2 seconds after the last activity', () => {
    const { onIdle, act } = watch();
    vi.advanceTimersByTime(5 * MINUTE);
    act();
    vi.advanceTimersByTime(1000);
    act('keydown');
    vi.advanceTimersByTime(10 * MINUTE + 2000 - 1);
    expect(onIdle).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(onIdle).toHaveBeenCalledTimes(1);
  });

  it('restarts the countdown once for a burst of activity', () => {
    const { act } = watch();
    const setTimeoutSpy = vi.spyOn(globalThis, 'setTimeout');
    for (let i = 0; i < 20; i += 1) {
      act();
      vi.advanceTimersByTime(50);
    }
    vi.advanceTimersByTime(ACTIVITY_DEBOUNCE_MS);
    const countdowns = setTimeoutSpy.mock.calls.filter(([, delay]) => delay === IDLE_TIMEOUT_MS);
    expect(countdowns).toHaveLength(1);
  });

  it('never counts a burst of activity longer than the timeout as idle', () => {
    const { onIdle, act } = watch();
    for (let second = 0; second < 12 * 60; second += 1) {
      act('scroll');
      vi.advanceTimersByTime(1000);
    }
    expect(onIdle).not.toHaveBeenCalled();
    vi.advanceTimersByTime(10 * MINUTE + 1000);
    expect(onIdle).toHaveBeenCalledTimes(1);
  });

  it('reports idle once per idle period; activity starts a new one', () => {
    const { onIdle, act } = watch();
    vi.advanceTimersByTime(30 * MINUTE);
    expect(onIdle).toHaveBeenCalledTimes(1);
    act('touchstart');
    vi.advanceTimersByTime(10 * MINUTE + 2000);
    expect(onIdle).toHaveBeenCalledTimes(2);
  });

  it('uses the timeout it is given', () => {
    const { onIdle } = watch(DEV_IDLE_TIMEOUT_MS);
    vi.advanceTimersByTime(10 * MINUTE);
    expect(onIdle).not.toHaveBeenCalled();
    vi.advanceTimersByTime(10 * MINUTE);
    expect(onIdle).toHaveBeenCalledTimes(1);
  });

  it('stops counting and listening once stopped', () => {
    const { onIdle, act, stop } = watch();
    act();
    stop();
    act();
    vi.advanceTimersByTime(60 * MINUTE);
    expect(onIdle).not.toHaveBeenCalled();
    expect(vi.getTimerCount()).toBe(0);
  });
});
