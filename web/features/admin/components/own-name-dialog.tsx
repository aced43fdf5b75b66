import { Form, Formik } from 'formik';
import { useState } from 'react';
import { ownNameSchema, type OwnNameInput } from '../../../../api/contract/team';
import { TextField } from '../../../components/form/formik-fields';
import { Dialog } from '../../../components/ui/dialog';
import { toast } from '../../../components/ui/toast';
import { serverFieldErrors, validateWith } from '../../../lib/form';
import { teamApi } from '../api/team-api';
import { useStaffSession } from '../session-store';

/** The signed-in member's name and role in the header; the name opens a dialog to change it. */
export function OwnAccount() {
  const account = useStaffSession((state) => state.account);
  const email = useStaffSession((state) => state.email);
  const setAccount = useStaffSession((state) => state.setAccount);
  const [open, setOpen] = useState(false);
  if (!account) return email ? <p className="text-sm text-slate-500">{email}</p> : null;
  return (
    <div className="flex flex-wrap items-center gap-x-2 gap-y-1 text-sm">
      <button
        type="button"
        onClick={() => setOpen(true)}
        title="Change your display name"
        className="font-medium text-slate-700 underline decoration-slate-300 underline-offset-2 hover:text-slate-900"
        data-testid="own-display-name"
      >
        {account.displayName}
      </button>
      <span className="rounded-full bg-slate-100 px-2 py-0.5 text-xs font-medium text-slate-600" data-testid="own-role">
        {account.role === 'admin' ? 'Admin' : 'Agent'}
      </span>
      {/* The email on wider screens; on a phone the name and role are enough. */}
      <span className="hidden text-slate-500 sm:inline">{account.email}</span>
      <Dialog
        open={open}
        onOpenChange={setOpen}
        title="Your display name"
        description="Visitors see it on your replies (“Dana, Lotwise”), and your team sees it everywhere in the dashboard."
        width="max-w-md"
      >
        <Formik<OwnNameInput>
          initialValues={{ displayName: account.displayName }}
          validate={validateWith<OwnNameInput>(ownNameSchema)}
          onSubmit={async (values, helpers) => {
            try {
              setAccount(await teamApi.rename(values.displayName.trim()));
              toast({ title: 'Display name saved', variant: 'success' });
              setOpen(false);
            } catch (error) {
              const errors = serverFieldErrors(error);
              if (errors) helpers.setErrors(errors);
              else toast({ title: 'Could not save your name', description: 'Please try again.', variant: 'destructive' });
            }
          }}
        >
          {({ isSubmitting }) => (
            <Form noValidate className="mt-4 space-y-4">
              <TextField form="own-name" name="displayName" label="Display name" autoComplete="name" maxLength={100} />
              <button
                type="submit"
                disabled={isSubmitting}
                className="w-full rounded-md bg-brand px-4 py-2 text-sm font-semibold text-white hover:bg-brand-dark disabled:opacity-70"
              >
                {isSubmitting ? 'Saving...' : 'Save'}
              </button>
            </Form>
          )}
        </Formik>
      </Dialog>
    </div>
  );
}
