import { rebind, withFamily } from '../engine/family';
import { VARIANTS, Variant, variantAliases } from '../engine/variants';

export interface OptionView {
  key: string;
  type: 'enum' | 'integer' | 'boolean';
  values?: (string | number)[];
  min?: number;
  max?: number;
  default: string | number | boolean | null;
  rule: string;
  description: string;
}

export interface VariantView {
  name: string;
  family: string;
  title: string;
  russian: string;
  description: string;
  specSection: string;
  aliases: string[];
  options: OptionView[];
}

function variantView(variant: Variant): VariantView {
  // The preset's own rules: bound without overrides, they are the defaults of its family's options.
  const { specs, defaults } = withFamily(rebind(variant, variant.rules), (b) => ({ specs: b.family.options, defaults: b.family.optionValues(b.rules) }));
  return {
    name: variant.name,
    family: variant.family,
    title: variant.title,
    russian: variant.russian,
    description: variant.description,
    specSection: variant.specSection,
    aliases: variantAliases(variant.name),
    options: specs.map((o) => {
      const view: OptionView = { key: o.key, type: o.kind, default: defaults[o.key], rule: o.rule, description: o.description };
      if (o.values) view.values = o.values.slice();
      if (o.min !== undefined) view.min = o.min;
      if (o.max !== undefined) view.max = o.max;
      return view;
    }),
  };
}

/** `GET /v1/variants`: every preset with its full option table. */
export function listVariants(): { variants: VariantView[] } {
  return { variants: VARIANTS.map(variantView) };
}
