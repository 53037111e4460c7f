import { useReactFlow } from "@xyflow/react";
import { useEffect, useState } from "react";
import type { Tab } from "./flow-panel";
import type { EditorStore } from "./store";

/**
 * The side panel's tab. Selecting or clicking a node on the canvas opens its settings; `pick` does the same for a
 * checklist problem's node and centres the canvas on it at the same zoom.
 */
export const usePanelTab = ({
  draft,
  shown,
  onPick,
}: {
  draft: EditorStore;
  shown: EditorStore;
  onPick: () => void;
}) => {
  const [tab, setTab] = useState<Tab>("node");
  const { getNode, getZoom, setCenter } = useReactFlow();
  useEffect(
    () =>
      shown.subscribe((s, prev) => {
        if ((s.selectedId && s.selectedId !== prev.selectedId) || s.nodeClicks !== prev.nodeClicks) setTab("node");
      }),
    [shown],
  );
  const pick = (nodeId: string) => {
    onPick();
    draft.getState().select(nodeId);
    setTab("node");
    const node = getNode(nodeId);
    if (!node) return;
    const width = node.measured?.width ?? 240;
    const height = node.measured?.height ?? 80;
    void setCenter(node.position.x + width / 2, node.position.y + height / 2, { zoom: getZoom(), duration: 300 });
  };
  return { tab, setTab, pick };
};
