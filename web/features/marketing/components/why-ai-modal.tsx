import { useRef } from 'react';
import { Link } from 'react-router-dom';
import { brand } from '../../../../api/contract/brand';
import { buttonClasses } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { useWhyAiModal } from '../why-ai-store';

/** The Why AI? modal; loaded on first open (see WhyAiModalHost). */
export function WhyAiModal() {
  const open = useWhyAiModal((state) => state.open);
  const setOpen = useWhyAiModal((state) => state.setOpen);
  const leavingForContact = useRef(false);
  return (
    <Dialog
      open={open}
      onOpenChange={setOpen}
      width="max-w-2xl"
      title={`With ${brand.product}, you get the power to compete with big dealers at a small price!`}
      onCloseAutoFocus={(event) => {
        // Focus goes back to what opened the modal; opened from the mobile menu, that button left with
        // the menu, so the menu button gets it instead of the page top.
        const opener = useWhyAiModal.getState().opener;
        event.preventDefault();
        if (leavingForContact.current) {
          // The call to action opens another page: focus starts there, not on the old opener.
          leavingForContact.current = false;
          return;
        }
        if (opener?.isConnected) opener.focus();
        else document.querySelector<HTMLElement>('header [aria-controls][aria-expanded]')?.focus();
      }}
    >
      <div className="mt-4 grid gap-4 text-base leading-7 text-slate-700">
        <p>
          {brand.product} was born in the age of AI. We never had to carry the heavy technological overhead of the
          legacy website vendors: no aging platforms to maintain, no armies of account managers, no add-on plugins to
          upsell.
        </p>
        <p>
          We pass those savings straight on to your dealership, so you get an AI-powered website that captures leads,
          answers shoppers around the clock and follows up automatically, at a price an independent lot can afford.
        </p>
      </div>
      <dl className="mt-6 grid grid-cols-2 gap-4">
        <div className="flex flex-col rounded-xl bg-brand-light p-4 text-center sm:p-5">
          <dt className="text-sm font-medium text-slate-700">Average Cost Savings</dt>
          <dd className="order-first text-2xl font-extrabold whitespace-nowrap text-brand sm:text-4xl">87%</dd>
        </div>
        <div className="flex flex-col rounded-xl bg-red-50 p-4 text-center sm:p-5">
          <dt className="text-sm font-medium text-slate-700">Average Launch Time</dt>
          <dd className="order-first text-2xl font-extrabold whitespace-nowrap text-cta-dark sm:text-4xl">5-7 Days</dd>
        </div>
      </dl>
      <Link
        to="/contact"
        className={buttonClasses('cta', 'lg', 'mt-6 w-full')}
        onClick={() => {
          leavingForContact.current = true;
          setOpen(false);
        }}
      >
        <span className="hidden sm:inline">So, What Are You Waiting For?</span>
        <span className="sm:hidden">Get In Touch</span>
      </Link>
    </Dialog>
  );
}
