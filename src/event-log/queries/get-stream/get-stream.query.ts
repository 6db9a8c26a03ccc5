import { Query } from '@nestjs/cqrs';

export interface StreamView {
  streamId: string;
  category: string;
  version: number;
  eventCount: number;
  lastEventType: string;
  lastGlobalPosition: number;
  firstRecordedAt: string;
  lastRecordedAt: string;
}

export class GetStream extends Query<StreamView> {
  constructor(readonly streamId: string) {
    super();
  }
}
