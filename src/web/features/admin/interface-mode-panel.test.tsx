import { fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { InterfaceModeControl } from './interface-mode-panel.tsx';

describe('InterfaceModeControl', () => {
  it('is a compact button until opened; the panel has the switch, the badge and the hint', () => {
    render(<InterfaceModeControl />);
    const button = screen.getByRole('button', { name: 'Interface Mode: Admin Interface' });
    expect(button.getAttribute('aria-expanded')).toBe('false');
    expect(screen.queryByRole('switch')).toBeNull();

    fireEvent.click(button);
    const panel = screen.getByRole('dialog', { name: 'Interface Mode' });
    const toggle = screen.getByRole('switch', { name: 'Admin mode' });
    expect(button.getAttribute('aria-expanded')).toBe('true');
    expect(toggle.getAttribute('aria-checked')).toBe('true');
    expect(panel.textContent).toContain('Admin Interface');
    expect(panel.textContent).toContain('Toggle to test both experiences');
    expect(document.activeElement).toBe(toggle);
  });

  it('switches to the user view and remembers it; Escape closes and returns focus', () => {
    render(<InterfaceModeControl />);
    fireEvent.click(screen.getByRole('button', { name: /^Interface Mode/ }));
    fireEvent.click(screen.getByRole('switch', { name: 'Admin mode' }));
    expect(localStorage.getItem('interfaceMode')).toBe('user');
    expect(screen.getByRole('dialog', { name: 'Interface Mode' }).textContent).toContain('User Interface');

    fireEvent.keyDown(document, { key: 'Escape' });
    expect(screen.queryByRole('dialog', { name: 'Interface Mode' })).toBeNull();
    const button = screen.getByRole('button', { name: 'Interface Mode: User Interface' });
    expect(document.activeElement).toBe(button);
  });

  it('closes on a press outside', () => {
    render(
      <div>
        <InterfaceModeControl />
        <p>elsewhere</p>
      </div>,
    );
    fireEvent.click(screen.getByRole('button', { name: /^Interface Mode/ }));
    expect(screen.getByRole('dialog', { name: 'Interface Mode' })).toBeTruthy();
    fireEvent.pointerDown(screen.getByText('elsewhere'));
    expect(screen.queryByRole('dialog', { name: 'Interface Mode' })).toBeNull();
  });
});
