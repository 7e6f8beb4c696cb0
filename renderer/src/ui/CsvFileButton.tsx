/**
 * A CSV file chosen through a labelled button in the UI's language (the browser's own file button speaks the
 * browser's language), its error right under it; the chooser is emptied once the file is handed over, so the same
 * file, corrected, may be chosen again. The till's and the hub's price-list imports and the hub receipt's supplier
 * CSV use it.
 */
import { FieldError } from './forms.tsx';

export function CsvFileButton(props: {
  label: string;
  errorId: string;
  error: string | undefined;
  onFile: (file: File) => void;
}) {
  return (
    <div className="mgr-field-group">
      <label className="mgr-file">
        {props.label}
        <input
          type="file"
          className="visually-hidden"
          accept=".csv,.txt,text/csv,text/plain"
          aria-invalid={props.error ? true : undefined}
          aria-describedby={props.error ? props.errorId : undefined}
          onChange={(e) => {
            const file = e.target.files?.[0];
            if (file) props.onFile(file);
            e.target.value = '';
          }}
        />
      </label>
      <FieldError error={props.error} errorId={props.errorId} />
    </div>
  );
}
