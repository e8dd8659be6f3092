// tools/dramsim3_cmp/drv.cc: a driver for DRAMSim3 (built outside gpustep, see
// run.sh). Feeds a DRAMSim-format trace to DRAMSim3 until every request returns;
// prints reads, mean read latency (DRAM cycles), row-hit rate, drain cycle.
#include <cstdio>
#include <cstdint>
#include <fstream>
#include <string>
#include <vector>
#include <map>
#include "memory_system.h"
using namespace dramsim3;
struct R { uint64_t a, c; bool w; };
int main(int argc, char **argv) {
  std::vector<R> t; std::ifstream f(argv[2]); std::string op; uint64_t a, c;
  while (f >> std::hex >> a >> op >> std::dec >> c) t.push_back({a, c, op == "WRITE"});
  uint64_t clk = 0, done = 0, last = 0, lat = 0, nr = 0;
  std::multimap<uint64_t, uint64_t> issued;
  auto rd = [&](uint64_t addr) { auto it = issued.find(addr); lat += clk - it->second; issued.erase(it); nr++; done++; last = clk; };
  auto wr = [&](uint64_t) { done++; last = clk; };
  MemorySystem m(argv[1], "out", rd, wr);
  size_t i = 0;
  while (done < t.size() && clk < 100000000) {
    m.ClockTick();
    if (i < t.size() && t[i].c <= clk && m.WillAcceptTransaction(t[i].a, t[i].w)) {
      m.AddTransaction(t[i].a, t[i].w); if (!t[i].w) issued.insert({t[i].a, clk}); i++;
    }
    clk++;
  }
  m.PrintStats();
  printf("DS3 requests %zu reads %lu mean_read_latency %.2f drain %lu\n", t.size(), nr, nr ? (double)lat / nr : 0.0, last);
}
