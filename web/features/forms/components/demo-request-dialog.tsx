import { Dialog } from '../../../components/ui/dialog';
import { DemoRequestForm } from './demo-request-form';

/** Loaded when Request Demo is first pressed (React.lazy in the home page). */
export function DemoRequestDialog({
  open,
  onOpenChange,
  onCloseAutoFocus,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** Where focus goes on close: the dialog has no Radix trigger to return it to. */
  onCloseAutoFocus?: (event: Event) => void;
}) {
  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      onCloseAutoFocus={onCloseAutoFocus}
      title="Request a Demo"
      description="See how an AI-powered website turns more of your shoppers into buyers. Tell us about your dealership and we'll set up a 30-minute walkthrough."
    >
      <DemoRequestForm onClose={() => onOpenChange(false)} />
    </Dialog>
  );
}
