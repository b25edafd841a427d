/** The welcome shown in a chat with no messages yet. */
export function EmptyChat({ modelName }: { modelName?: string }) {
  return (
    <div className="empty-chat" data-testid="empty-chat">
      <div className="empty-logo" aria-hidden="true">P</div>
      <h2>What shall we work on?</h2>
      <p className="muted">
        {modelName ? <>Chatting with <strong>{modelName}</strong>. </> : null}
        Enter sends, Shift+Enter adds a line. While the agent works you can steer it or queue a follow-up.
      </p>
    </div>
  );
}
