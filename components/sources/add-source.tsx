"use client";

import { useState, type ComponentType } from "react";
import { Card, CardHeader } from "@/components/ui/card";
import { Tabs } from "@/components/ui/tabs";
import { AddWebSource, WEB_SOURCE_KINDS } from "./add-web-source";
import { FileUpload } from "./file-upload";

export type AddSourceFormProps = { projectId: string; indexingOptions: readonly string[] };

/**
 * Where a source comes from. File upload is built in; the connectors' forms (web page, GitHub repository, YouTube
 * video) plug in here, one component each: add an entry to CONNECTOR_FORMS and its tab appears.
 */
export const CONNECTOR_FORMS: { value: string; label: string; Form: ComponentType<AddSourceFormProps> }[] =
  WEB_SOURCE_KINDS.map(({ value, label }) => ({
    value,
    label,
    Form: ({ projectId }: AddSourceFormProps) => <AddWebSource projectId={projectId} kind={value} />,
  }));

export const AddSource = (props: AddSourceFormProps) => {
  const tabs = [{ value: "file", label: "File", Form: FileUpload }, ...CONNECTOR_FORMS];
  const [tab, setTab] = useState("file");
  const Form = tabs.find((t) => t.value === tab)?.Form ?? FileUpload;
  return (
    <Card label="Add sources">
      <CardHeader title="Add sources" />
      <div className="px-5 pb-5">
        {tabs.length > 1 ? (
          <Tabs
            label="Source kind"
            value={tab}
            onChange={setTab}
            tabs={tabs.map(({ value, label }) => ({ value, label }))}
          >
            <Form {...props} />
          </Tabs>
        ) : (
          <div className="pt-4">
            <Form {...props} />
          </div>
        )}
      </div>
    </Card>
  );
};
