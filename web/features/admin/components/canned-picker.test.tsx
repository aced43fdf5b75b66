import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useRef, useState } from 'react';
import { MemoryRouter } from 'react-router-dom';
import { describe, expect, it } from 'vitest';
import { type CannedReply, type CannedReplyVisitor, fillCannedReply } from '../../../../api/contract/team-inbox-notes';
import { slashQueryAt, useCannedPicker } from './canned-picker';

const reply = (id: number, title: string, text: string): CannedReply => ({ id, title, text, createdAt: '2026-12-01T10:00:00.000Z', updatedAt: '2026-12-01T10:00:00.000Z' });
const replies = [
  reply(1, 'Pricing', 'Hi {name}, our plans start at $299 a month.'),
  reply(2, 'Book a demo', 'I will send the invite to {email}.'),
  reply(3, 'Thanks', 'Thanks for stopping by!'),
];

function ReplyBox({ visitor = { name: 'Dana', email: 'dana@reyes-motors.example' } }: { visitor?: CannedReplyVisitor }) {
  const [value, setValue] = useState('');
  const box = useRef<HTMLTextAreaElement>(null);
  const picker = useCannedPicker({ value, onChange: setValue, replies, visitor, textareaRef: box });
  return (
    <MemoryRouter>
      <form className="relative">
        {picker.picker}
        <textarea
          aria-label="Reply"
          ref={box}
          value={value}
          {...picker.inputProps}
          onChange={(event) => {
            setValue(event.target.value);
            picker.track(event.target);
          }}
          onKeyDown={(event) => void picker.onKeyDown(event)}
        />
      </form>
    </MemoryRouter>
  );
}

const options = () => screen.getAllByRole('option').map((option) => option.querySelector('span')?.textContent);
const active = () => {
  const id = screen.getByRole('textbox', { name: 'Reply' }).getAttribute('aria-activedescendant');
  return id ? document.getElementById(id)?.querySelector('span')?.textContent : undefined;
};

describe('canned reply placeholders', () => {
  it('fills {name} and {email} from the conversation, in any case', () => {
    expect(fillCannedReply('Hi {name}, we will write to {EMAIL}.', { name: 'Dana', email: 'dana@x.example' })).toBe('Hi Dana, we will write to dana@x.example.');
  });

  it('leaves a sensible blank for an unknown value: no gap before punctuation, no double space', () => {
    expect(fillCannedReply('Hi {name}, thanks!', { name: null, email: null })).toBe('Hi, thanks!');
    expect(fillCannedReply('Thanks {name}!\nWe will mail {email} today.', { name: '', email: null })).toBe('Thanks!\nWe will mail today.');
    expect(fillCannedReply('Use {code} as is', { name: 'Dana', email: null })).toBe('Use {code} as is');
  });

  it('opens on a slash at the start or after a space only', () => {
    expect(slashQueryAt('/pri', 4)).toEqual({ start: 0, end: 4, query: 'pri' });
    expect(slashQueryAt('Sure. /demo', 11)).toEqual({ start: 6, end: 11, query: 'demo' });
    expect(slashQueryAt('and/or', 6)).toBeNull();
    expect(slashQueryAt('https://x', 9)).toBeNull();
  });
});

describe('the / picker', () => {
  it('lists the team replies on /, filters as you type, and moves with Up and Down (wrapping)', async () => {
    const user = userEvent.setup();
    render(<ReplyBox />);
    const box = screen.getByRole('textbox', { name: 'Reply' });
    await user.type(box, '/');
    expect(screen.getByRole('listbox', { name: 'Canned replies' })).toBeInTheDocument();
    expect(box).toHaveAttribute('aria-controls', screen.getByRole('listbox').id);
    expect(options()).toEqual(['Pricing', 'Book a demo', 'Thanks']);
    expect(active()).toBe('Pricing');
    await user.keyboard('{ArrowDown}');
    expect(active()).toBe('Book a demo');
    expect(screen.getByRole('option', { name: /Book a demo/ })).toHaveAttribute('aria-selected', 'true');
    await user.keyboard('{ArrowUp}{ArrowUp}');
    expect(active()).toBe('Thanks');

    await user.type(box, 'tha');
    expect(options()).toEqual(['Thanks']);
    // Words of the text match too, after the titles.
    await user.clear(box);
    await user.type(box, '/invite');
    expect(options()).toEqual(['Book a demo']);
  });

  it('Enter inserts the chosen reply with the visitor’s name and email filled, in place of the /word', async () => {
    const user = userEvent.setup();
    render(<ReplyBox />);
    const box = screen.getByRole('textbox', { name: 'Reply' });
    await user.type(box, 'Sure. /dem');
    await user.keyboard('{Enter}');
    expect(box).toHaveValue('Sure. I will send the invite to dana@reyes-motors.example.');
    expect(screen.queryByRole('listbox')).not.toBeInTheDocument();
  });

  it('an unknown name leaves no gap; Esc closes without inserting, and a slash in a word opens nothing', async () => {
    const user = userEvent.setup();
    render(<ReplyBox visitor={{ name: null, email: null }} />);
    const box = screen.getByRole('textbox', { name: 'Reply' });
    await user.type(box, '/pri');
    await user.keyboard('{Enter}');
    expect(box).toHaveValue('Hi, our plans start at $299 a month.');

    await user.clear(box);
    await user.type(box, '/th');
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('listbox')).not.toBeInTheDocument();
    expect(box).toHaveValue('/th');
    expect(box).not.toHaveAttribute('aria-activedescendant');

    await user.clear(box);
    await user.type(box, 'trade-in and/or');
    expect(screen.queryByRole('listbox')).not.toBeInTheDocument();
  });

  it('says so when nothing matches, with the way to the team list', async () => {
    const user = userEvent.setup();
    render(<ReplyBox />);
    await user.type(screen.getByRole('textbox', { name: 'Reply' }), '/zzz');
    expect(screen.queryAllByRole('option')).toEqual([]);
    expect(screen.getByText(/No canned reply matches/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Canned replies' })).toHaveAttribute('href', '/admin/canned-replies');
  });
});
