import type { Metadata } from "next";
import { ChatPlayground } from "@/components/answers/chat-playground";

export const metadata: Metadata = { title: "Chat" };

const ChatPage = async ({ params }: { params: Promise<{ projectId: string }> }) => {
  const { projectId } = await params;
  return <ChatPlayground projectId={projectId} />;
};

export default ChatPage;
