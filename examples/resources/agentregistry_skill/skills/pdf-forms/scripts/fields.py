"""Prints the fillable fields of a PDF form."""
import sys

from pypdf import PdfReader

for name in PdfReader(sys.argv[1]).get_fields() or {}:
    print(name)
