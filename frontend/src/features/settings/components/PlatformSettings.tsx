import { useId, useRef, useState, type KeyboardEvent } from 'react';
import type { AdminOrganization } from '../api/types';
import { Dialog } from '../../../shared/ui/Dialog';
import { AlarmSettingsTab } from './AlarmSettingsTab';
import { InviteUsersTab } from './InviteUsersTab';
import { ManageUsersTab } from './ManageUsersTab';
import styles from './Settings.module.css';
import { UploadLogoTab } from './UploadLogoTab';

const TABS = [
  { value: 'invite', label: 'Invite Users' },
  { value: 'users', label: 'Manage Users' },
  { value: 'logo', label: 'Upload Logo' },
  { value: 'alarms', label: 'Alarms' },
] as const;
type TabValue = (typeof TABS)[number]['value'];

interface PlatformSettingsProps {
  /** The administrator's organizations (the app passes its tree). */
  organizations: readonly AdminOrganization[];
  onLogoUploaded?: (orgId: string) => void;
}

/** The Settings gear and the Platform Settings modal (vertical tabs). The app shows it for roles above 1. */
export function PlatformSettings({ organizations, onLogoUploaded }: PlatformSettingsProps) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button
        type="button"
        className={styles.gear}
        aria-label="Settings"
        title="Platform Settings"
        aria-haspopup="dialog"
        onClick={() => setOpen(true)}
      >
        <svg width="18" height="18" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
          <circle cx="12" cy="12" r="3" />
          <path d="M19.4 15a1.7 1.7 0 0 0 .3 1.8l.1.1a2 2 0 1 1-2.8 2.8l-.1-.1a1.7 1.7 0 0 0-1.8-.3 1.7 1.7 0 0 0-1 1.5V21a2 2 0 1 1-4 0v-.1a1.7 1.7 0 0 0-1.1-1.5 1.7 1.7 0 0 0-1.8.3l-.1.1a2 2 0 1 1-2.8-2.8l.1-.1a1.7 1.7 0 0 0 .3-1.8 1.7 1.7 0 0 0-1.5-1H3a2 2 0 1 1 0-4h.1a1.7 1.7 0 0 0 1.5-1.1 1.7 1.7 0 0 0-.3-1.8l-.1-.1a2 2 0 1 1 2.8-2.8l.1.1a1.7 1.7 0 0 0 1.8.3H9a1.7 1.7 0 0 0 1-1.5V3a2 2 0 1 1 4 0v.1a1.7 1.7 0 0 0 1 1.5 1.7 1.7 0 0 0 1.8-.3l.1-.1a2 2 0 1 1 2.8 2.8l-.1.1a1.7 1.7 0 0 0-.3 1.8V9a1.7 1.7 0 0 0 1.5 1H21a2 2 0 1 1 0 4h-.1a1.7 1.7 0 0 0-1.5 1Z" />
        </svg>
      </button>
      <Dialog open={open} title="Platform Settings" size="large" onClose={() => setOpen(false)}>
        {open && <SettingsTabs organizations={organizations} onLogoUploaded={onLogoUploaded} />}
      </Dialog>
    </>
  );
}

function SettingsTabs({ organizations, onLogoUploaded }: PlatformSettingsProps) {
  const baseId = useId();
  const [current, setCurrent] = useState<TabValue>('invite');
  const tabRefs = useRef(new Map<TabValue, HTMLButtonElement>());

  const onKeyDown = (event: KeyboardEvent<HTMLButtonElement>) => {
    const index = TABS.findIndex((tab) => tab.value === current);
    const moves: Record<string, number> = {
      ArrowDown: (index + 1) % TABS.length,
      ArrowUp: (index - 1 + TABS.length) % TABS.length,
      Home: 0,
      End: TABS.length - 1,
    };
    const next = moves[event.key];
    const tab = next === undefined ? undefined : TABS[next];
    if (!tab) return;
    event.preventDefault();
    setCurrent(tab.value);
    tabRefs.current.get(tab.value)?.focus();
  };

  return (
    <div className={styles.tabs}>
      <div role="tablist" aria-orientation="vertical" className={styles.tabList}>
        {TABS.map((tab) => (
          <button
            key={tab.value}
            ref={(element) => {
              if (element) tabRefs.current.set(tab.value, element);
              else tabRefs.current.delete(tab.value);
            }}
            type="button"
            role="tab"
            id={`${baseId}-${tab.value}-tab`}
            aria-controls={`${baseId}-${tab.value}-panel`}
            aria-selected={current === tab.value}
            tabIndex={current === tab.value ? 0 : -1}
            className={styles.tab}
            onClick={() => setCurrent(tab.value)}
            onKeyDown={onKeyDown}
          >
            {tab.label}
          </button>
        ))}
      </div>
      <div
        role="tabpanel"
        id={`${baseId}-${current}-panel`}
        aria-labelledby={`${baseId}-${current}-tab`}
        className={styles.tabPanel}
      >
        <h3 className={styles.panelTitle}>{TABS.find((tab) => tab.value === current)?.label}</h3>
        {current === 'invite' && <InviteUsersTab organizations={organizations} />}
        {current === 'users' && <ManageUsersTab organizations={organizations} />}
        {current === 'logo' && <UploadLogoTab organizations={organizations} onUploaded={onLogoUploaded} />}
        {current === 'alarms' && <AlarmSettingsTab organizations={organizations} />}
      </div>
    </div>
  );
}
