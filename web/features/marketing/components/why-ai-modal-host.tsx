import { lazy, Suspense, useState } from 'react';
import { useWhyAiModal } from '../why-ai-store';

const WhyAiModal = lazy(() => import('./why-ai-modal').then((module) => ({ default: module.WhyAiModal })));

/** Keeps the dialog code (Radix) off the first load: it loads the first time the modal opens. */
export function WhyAiModalHost() {
  const open = useWhyAiModal((state) => state.open);
  const [loaded, setLoaded] = useState(false);
  if (open && !loaded) setLoaded(true);
  if (!loaded) return null;
  return (
    <Suspense fallback={null}>
      <WhyAiModal />
    </Suspense>
  );
}
