import { useCallback, useEffect } from 'react';
import { useState } from 'react';
import { request } from '../../api/client';
import { useCoalesced, useLatest } from '../../api/hooks';
import type { DraftCheckQuery } from '../../gql/graphql';
import { type AgentDraft, inputOf } from '../agent-draft';
import { DraftCheckQuery as DraftCheck } from '../operations';

export type DraftCheck = DraftCheckQuery['agentDraftCheck'];

/**
 * The library's rules, asked of the service for the draft as it is typed (never a copy in the browser).
 * `recheck` asks again for the current draft (the library changed elsewhere).
 */
export function useDraftCheck(agentId: string | undefined, draft: AgentDraft): { check: DraftCheck | undefined; recheck: () => void } {
  const [check, setCheck] = useState<DraftCheck | undefined>();
  const checkNow = useCallback(
    async (current: AgentDraft) => {
      if (!current.name.trim()) return;
      try {
        setCheck((await request(DraftCheck, { id: agentId ?? (current.id || null), input: inputOf(current) })).agentDraftCheck);
      } catch {
        // A draft the service cannot read yet (a field too long...): the save shows the problem by its field.
      }
    },
    [agentId],
  );
  const draftRef = useLatest(draft);
  const checkSoon = useCoalesced(() => void checkNow(draftRef.current), 200);
  useEffect(() => {
    checkSoon();
  }, [draft, checkSoon]);
  const recheck = useCallback(() => void checkNow(draftRef.current), [checkNow, draftRef]);
  return { check, recheck };
}
