#!/usr/bin/env python3
"""Regenerates AppStoreAPIErrorCode.swift from the App Store Server API error list in
app_store_api_error_codes.txt beside this script (codes and names as Apple documents them).
Usage: python3 Sources/SigilHTTP/generate_error_codes.py > Sources/SigilHTTP/AppStoreAPIErrorCode.swift"""
import pathlib
import re

here = pathlib.Path(__file__).resolve()
listing = here.parent / "app_store_api_error_codes.txt"
items = []
for line in listing.read_text().splitlines():
    if not line.strip() or line.startswith("#"):
        continue
    fields = line.split()
    items.append((fields[0], fields[1], len(fields) > 2 and fields[2] == "deprecated"))
print("""// swift-format-ignore-file
// Generated from the App Store Server API error list (Apple's documentation, as listed in
// app_store_api_error_codes.txt) by generate_error_codes.py beside this file. Generated, do not
// edit.

import SigilAppStore
import SigilBase

/// An App Store Server API errorCode. Unknown codes are kept as their raw value.
public struct AppStoreAPIErrorCode: AppleOpenEnum {
    /// The errorCode as Apple sent it.
    public let rawValue: Int64
    /// Wraps an errorCode as received, documented or not.
    public init(rawValue: Int64) { self.rawValue = rawValue }
""")
names = []
for code, name, deprecated in items:
    swift_name = name[0].lower() + name[1:]
    names.append(swift_name)
    suffix = "  // deprecated" if deprecated else ""
    note = "; Apple has deprecated it" if deprecated else ""
    print(f"    /// The errorCode {code}{note}.")
    print(f"    public static let {swift_name} = AppStoreAPIErrorCode(rawValue: {code}){suffix}")
print("    /// The codes Apple documents.")
print("    public static let documented: [AppStoreAPIErrorCode] = [")
for i in range(0, len(names), 6):
    print("        " + ", ".join("." + n for n in names[i:i + 6]) + ",")
print("    ]")
print("}")
