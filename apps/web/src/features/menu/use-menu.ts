import { useCallback, useEffect, useId, useRef, useState, type FocusEvent, type KeyboardEvent } from 'react';

const ITEM = '[role="menuitem"]';

/**
 * The WAI-ARIA menu button pattern: opening moves focus to the first item; Arrow keys, Home and
 * End move it between items; Escape closes the menu and returns focus to the toggle; Tab, a click
 * outside or focus leaving the menu close it. Items carry tabIndex={-1}: Tab leaves the menu. The
 * menu is a <ul> of <li role="none">, each holding one role="menuitem".
 */
export function useMenu() {
  const [open, setOpen] = useState(false);
  const [start, setStart] = useState<'first' | 'last'>('first');
  const toggle = useRef<HTMLButtonElement>(null);
  const menu = useRef<HTMLUListElement>(null);
  const id = useId();
  const items = () => Array.from(menu.current?.querySelectorAll<HTMLElement>(ITEM) ?? []);

  useEffect(() => {
    if (!open) return;
    const list = items();
    (start === 'first' ? list[0] : list.at(-1))?.focus();
  }, [open, start]);

  useEffect(() => {
    if (!open) return;
    const outside = (event: MouseEvent) => {
      const target = event.target as Node;
      if (!menu.current?.contains(target) && !toggle.current?.contains(target)) setOpen(false);
    };
    document.addEventListener('mousedown', outside);
    return () => document.removeEventListener('mousedown', outside);
  }, [open]);

  const show = useCallback((from: 'first' | 'last') => {
    setStart(from);
    setOpen(true);
  }, []);

  const close = useCallback(() => {
    setOpen(false);
    toggle.current?.focus();
  }, []);

  function onMenuKeyDown(event: KeyboardEvent<HTMLElement>) {
    const list = items();
    const at = list.indexOf(document.activeElement as HTMLElement);
    const moveTo = (index: number) => {
      event.preventDefault();
      list[(index + list.length) % list.length]?.focus();
    };
    if (event.key === 'ArrowDown') moveTo(at + 1);
    else if (event.key === 'ArrowUp') moveTo(at - 1);
    else if (event.key === 'Home') moveTo(0);
    else if (event.key === 'End') moveTo(list.length - 1);
    else if (event.key === 'Escape') {
      event.preventDefault();
      close();
    } else if (event.key === 'Tab') setOpen(false);
  }

  function onMenuBlur(event: FocusEvent<HTMLElement>) {
    const next = event.relatedTarget as Node | null;
    if (next && !event.currentTarget.contains(next) && !toggle.current?.contains(next)) setOpen(false);
  }

  const toggleProps = {
    ref: toggle,
    'aria-haspopup': 'menu' as const,
    'aria-expanded': open,
    'aria-controls': open ? id : undefined,
    onClick: () => (open ? setOpen(false) : show('first')),
    onKeyDown: (event: KeyboardEvent<HTMLButtonElement>) => {
      if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
        event.preventDefault();
        show(event.key === 'ArrowDown' ? 'first' : 'last');
      } else if (event.key === 'Escape' && open) close();
    },
  };
  const menuProps = { ref: menu, id, role: 'menu' as const, onKeyDown: onMenuKeyDown, onBlur: onMenuBlur };
  return { open, setOpen, close, toggleProps, menuProps };
}
