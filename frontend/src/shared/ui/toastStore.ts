import { useSyncExternalStore } from 'react';

export type ToastVariation = 'info' | 'success' | 'warning' | 'error';

export interface Toast {
  id: number;
  message: string;
  variation: ToastVariation;
}

const TOAST_LIFETIME_MS = 6000;
const MAX_VISIBLE = 4;

let toasts: readonly Toast[] = [];
let nextId = 1;
const listeners = new Set<() => void>();

function emit(next: readonly Toast[]): void {
  toasts = next;
  for (const listener of listeners) listener();
}

export function dismissToast(id: number): void {
  emit(toasts.filter((toast) => toast.id !== id));
}

/** Callable from anywhere (the API client included), not only from components. */
export function showToast(message: string, variation: ToastVariation = 'info'): void {
  // Several requests failing together must not stack the same message.
  if (toasts.some((toast) => toast.message === message && toast.variation === variation)) return;
  const id = nextId++;
  emit([...toasts, { id, message, variation }].slice(-MAX_VISIBLE));
  setTimeout(() => dismissToast(id), TOAST_LIFETIME_MS);
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export const getToasts = (): readonly Toast[] => toasts;

export function useToasts(): readonly Toast[] {
  return useSyncExternalStore(subscribe, getToasts, getToasts);
}
