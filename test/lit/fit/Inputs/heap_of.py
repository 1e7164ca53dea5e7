"""Prints the heap plan.json records for one entry point at one S.

usage: heap_of.py PLAN.json ENTRY S
"""
import json
import sys

plan = json.load(open(sys.argv[1]))
print(next(e["heap"] for e in plan["entries"]
           if e["entry"] == sys.argv[2] and e["chunk"] == int(sys.argv[3])))
