"use client";

import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { Field } from "@/components/ui/field";
import { Textarea } from "@/components/ui/input";

/** Asks before a deploy, with an optional description kept with the new revision. */
export const DeployDialog = ({
  name,
  open,
  description,
  onDescription,
  onClose,
  onDeploy,
}: {
  name: string;
  open: boolean;
  description: string;
  onDescription: (text: string) => void;
  onClose: () => void;
  onDeploy: () => void;
}) => (
  <Dialog open={open} onClose={onClose} title={`Deploy ${name}`}>
    <form
      aria-label="Deploy"
      onSubmit={(e) => {
        e.preventDefault();
        onDeploy();
      }}
      className="space-y-4"
    >
      <p className="text-sm text-muted-foreground">
        The draft becomes a new revision and takes all of the flow’s traffic once it is built. The current revision
        keeps serving until then.
      </p>
      <Field label="Description" hint="Optional: what this revision is for (kept with the revision)">
        {(p) => <Textarea {...p} rows={2} value={description} onChange={(e) => onDescription(e.target.value)} />}
      </Field>
      <div className="flex justify-end gap-2">
        <Button variant="secondary" onClick={onClose}>
          Cancel
        </Button>
        <Button type="submit">Deploy now</Button>
      </div>
    </form>
  </Dialog>
);
