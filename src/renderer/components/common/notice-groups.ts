/**
 * Identical notices shown once, with a count: a failing step that says the same thing on every run ("Could not
 * summarise earlier messages" eleven times) is one banner saying "×11", not eleven banners squeezing the chat.
 */

/** Notices that say the same thing: the first of them (where the group shows), all of them, and how many. */
export interface NoticeGroup<T> {
  key: string;
  first: T;
  all: T[];
  count: number;
}

/**
 * `notices` grouped by what they say (`sameAs`: level and text, say), each group where its first notice was, in
 * their order. A notice's own fields beyond what `sameAs` reads (an action) come from the group's first.
 */
export function groupNotices<T>(notices: readonly T[], sameAs: (notice: T) => string): NoticeGroup<T>[] {
  const groups = new Map<string, NoticeGroup<T>>();
  for (const notice of notices) {
    const key = sameAs(notice);
    const group = groups.get(key);
    if (group) {
      group.all.push(notice);
      group.count++;
    } else groups.set(key, { key, first: notice, all: [notice], count: 1 });
  }
  return [...groups.values()];
}

/** How a chat's notice shows (NoticeBanner's level): a failure as an error, the rest as warnings (amber, role=status). */
export function noticeLevel(kind: "worker-restarted" | "warning" | "error"): "warning" | "error" {
  return kind === "error" ? "error" : "warning";
}

/** The count beside a merged notice: "×3" (nothing for one). */
export function noticeCount(count: number): string {
  return count > 1 ? `×${count}` : "";
}
