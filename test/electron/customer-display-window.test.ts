/** Where Electron opens the customer display's window (electron/window-config.ts `customerDisplayPlacement`). */
import { describe, expect, it } from 'vitest';
import { APP_START_URL, customerDisplayPlacement, customerDisplayUrl } from '../../electron/window-config.ts';

const till = { x: 0, y: 0, width: 1366, height: 768 };
const second = { x: 1366, y: 0, width: 800, height: 1280 };

describe('the customer display window', () => {
  it('goes full screen on the first screen that is not the till’s', () => {
    expect(customerDisplayPlacement([till, second], till, undefined)).toEqual({ bounds: second, fullscreen: true });
    expect(customerDisplayPlacement([second, till], till, 'window')).toEqual({ bounds: second, fullscreen: true });
  });

  it('is not opened on one screen unless asked, and never when switched off', () => {
    expect(customerDisplayPlacement([till], till, undefined)).toBeNull();
    expect(customerDisplayPlacement([till, second], till, 'off')).toBeNull();
    expect(customerDisplayPlacement([till], till, 'window')).toEqual({
      bounds: { x: 0, y: 0, width: 1024, height: 768 },
      fullscreen: false,
    });
  });

  it('loads the renderer told to draw the display in its language', () => {
    expect(customerDisplayUrl('sr-Latn')).toBe(`${APP_START_URL}#display=sr-Latn`);
  });
});
