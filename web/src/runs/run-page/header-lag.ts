/**
 * Whether the run header read from the service is behind the run's live status (its events). A paused
 * run's header says `paused` where its events still say `running`: that is not a lag.
 */
export function headerLagsLiveStatus(liveStatus: string | undefined, readStatus: string | undefined): boolean {
  if (!liveStatus || !readStatus) return false;
  return liveStatus !== (readStatus === 'paused' ? 'running' : readStatus);
}
