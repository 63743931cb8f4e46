import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { findFloor } from '../api/treeQueries';
import type { Organization } from '../api/types';

const STORAGE_KEY = 'argentum.tree.expanded';
/** Up to this many organizations start open; a longer list starts collapsed, as an index. */
const OPEN_BY_DEFAULT_MAX = 20;

function readStored(): ReadonlySet<string> | null {
  try {
    const raw = sessionStorage.getItem(STORAGE_KEY);
    if (raw === null) return null;
    const parsed: unknown = JSON.parse(raw);
    return Array.isArray(parsed)
      ? new Set(parsed.filter((id): id is string => typeof id === 'string'))
      : null;
  } catch {
    return null;
  }
}

/**
 * Which organizations and buildings are open. Kept in sessionStorage so a reload keeps the tree as
 * the user left it; before the user touches the tree, organizations start open (unless there are
 * many). The organization and
 * building of the selected floor are opened whenever the selection changes (e.g. a shared link).
 * `toggle` keeps its identity, so rows that did not change need not render again.
 */
export function useExpandedNodes(
  organizations: readonly Organization[] | undefined,
  selectedFloorId: string | null,
) {
  const [stored, setStored] = useState<ReadonlySet<string> | null>(readStored);
  const [revealedFloorId, setRevealedFloorId] = useState<string | null>(null);

  const expanded = useMemo(
    () =>
      stored ??
      new Set(
        organizations && organizations.length <= OPEN_BY_DEFAULT_MAX
          ? organizations.map((organization) => organization._id)
          : [],
      ),
    [stored, organizations],
  );
  const current = useRef(expanded);
  useEffect(() => {
    current.current = expanded;
  }, [expanded]);

  if (organizations && selectedFloorId !== null && selectedFloorId !== revealedFloorId) {
    setRevealedFloorId(selectedFloorId);
    const location = findFloor(organizations, selectedFloorId);
    if (location && !(expanded.has(location.organization._id) && expanded.has(location.building._id))) {
      setStored(new Set([...expanded, location.organization._id, location.building._id]));
    }
  }

  useEffect(() => {
    if (stored === null) return;
    try {
      sessionStorage.setItem(STORAGE_KEY, JSON.stringify([...stored]));
    } catch {
      // Storage may be full or disabled; the tree then simply forgets its state on reload.
    }
  }, [stored]);

  const toggle = useCallback((id: string) => {
    const next = new Set(current.current);
    if (next.has(id)) next.delete(id);
    else next.add(id);
    current.current = next;
    setStored(next);
  }, []);

  const open = useCallback((id: string) => {
    if (current.current.has(id)) return;
    const next = new Set([...current.current, id]);
    current.current = next;
    setStored(next);
  }, []);

  return { expanded, toggle, open };
}
