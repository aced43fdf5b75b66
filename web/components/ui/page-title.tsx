import { brand } from '../../../api/contract/brand';

/** The browser tab's title for a page (React 19 hoists `<title>` into the head). */
export function PageTitle({ title }: { title?: string }) {
  return <title>{title ? `${title} · ${brand.product}` : `${brand.product} · AI-powered websites for pre-owned dealerships`}</title>;
}
