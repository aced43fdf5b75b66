/** What staff read of a visitor's user agent: the browser with its major version, the system, the kind of device. */
export interface VisitorDevice {
  browser: string;
  os: string;
  device: 'Phone' | 'Tablet' | 'Desktop';
}

// Order matters: Edge and the iOS browsers also say Chrome or Safari, and every Chromium says Safari.
const browsers: [name: string, pattern: RegExp][] = [
  ['Edge', /\bEdg(?:e|A|iOS)?\/(\d+)/],
  ['Firefox', /\b(?:Firefox|FxiOS)\/(\d+)/],
  ['Chrome', /\b(?:Chrome|CriOS)\/(\d+)/],
  ['Safari', /\bVersion\/(\d+)[\d.]*(?: Mobile\/\S+)? Safari\//],
];

const systems: [name: string, pattern: RegExp][] = [
  ['iOS', /\b(?:iPhone|iPad|iPod)\b/],
  ['Android', /\bAndroid\b/],
  ['Windows', /\bWindows\b/],
  ['ChromeOS', /\bCrOS\b/],
  ['macOS', /\bMac OS X\b|\bMacintosh\b/],
  ['Linux', /\bLinux\b/],
];

/**
 * The common browsers and systems from a user agent, by a few patterns rather than a parsing
 * library: staff need "Safari 18 on iOS, phone", not every engine and model, and the admin chunk
 * stays small. Anything else reads as "Unknown".
 */
export function describeUserAgent(userAgent: string): VisitorDevice {
  let browser = 'Unknown browser';
  for (const [name, pattern] of browsers) {
    const match = pattern.exec(userAgent);
    if (match) {
      browser = `${name} ${match[1]}`;
      break;
    }
  }
  const os = systems.find(([, pattern]) => pattern.test(userAgent))?.[0] ?? 'Unknown system';
  const tablet = /\biPad\b|\bTablet\b/.test(userAgent) || (os === 'Android' && !/\bMobile\b/.test(userAgent));
  const phone = !tablet && /\bMobi|\biPhone\b|\biPod\b/.test(userAgent);
  return { browser, os, device: tablet ? 'Tablet' : phone ? 'Phone' : 'Desktop' };
}
