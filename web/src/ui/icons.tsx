import type { LucideIcon } from 'lucide-react';
import {
  Blocks,
  Bot,
  CalendarClock,
  Check,
  ChevronDown,
  ChevronRight,
  CircleAlert,
  CircleHelp,
  CirclePlay,
  CircleStop,
  CircleUser,
  Copy,
  Hourglass,
  KeyRound,
  Menu,
  Moon,
  RotateCcw,
  Search,
  ShieldCheck,
  Sun,
  Trash2,
  Users,
  Wrench,
  X,
} from 'lucide-react';

/**
 * The console's icons: SVGs bundled with it (lucide), so they draw on a machine without an emoji font.
 * Each one is decorative next to its text label; give `label` when the icon stands alone, and screen
 * readers hear the label instead.
 */
export const ICONS = {
  agent: Bot,
  team: Users,
  composable: Blocks,
  tool: Wrench,
  permission: ShieldCheck,
  approve: Check,
  deny: X,
  warning: CircleAlert,
  question: CircleHelp,
  resume: RotateCcw,
  run: CirclePlay,
  stop: CircleStop,
  remove: Trash2,
  search: Search,
  light: Sun,
  dark: Moon,
  expanded: ChevronDown,
  collapsed: ChevronRight,
  menu: Menu,
  close: X,
  waiting: Hourglass,
  user: CircleUser,
  copy: Copy,
  key: KeyRound,
  schedule: CalendarClock,
} satisfies Record<string, LucideIcon>;

export type IconName = keyof typeof ICONS;

export function Icon({ name, label, size = 16 }: { name: IconName; label?: string; size?: number }) {
  const Svg = ICONS[name];
  return label ? (
    <Svg size={size} role="img" aria-label={label} className="icon" focusable="false" />
  ) : (
    <Svg size={size} aria-hidden="true" className="icon" focusable="false" />
  );
}
