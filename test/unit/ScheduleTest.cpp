//===- ScheduleTest.cpp - Memory-aware op order ---------------------------===//
#include "coreai-plan/Schedule.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <random>

using namespace coreai;

namespace {

std::vector<unsigned> identity(size_t count) {
  std::vector<unsigned> order(count);
  for (unsigned i = 0; i < count; ++i)
    order[i] = i;
  return order;
}

bool isTopological(const ScheduleGraph &graph,
                   const std::vector<unsigned> &order) {
  std::vector<int> position(order.size(), -1);
  for (unsigned i = 0; i < order.size(); ++i)
    position[order[i]] = i;
  if (std::count(position.begin(), position.end(), -1) != 0)
    return false;
  for (unsigned node = 0; node < graph.predecessors.size(); ++node)
    for (unsigned before : graph.predecessors[node])
      if (position[before] >= position[node])
        return false;
  return true;
}

/// A random DAG in the given (topological) order; each node makes one
/// tensor read by 1-3 later nodes.
ScheduleGraph randomGraph(std::mt19937 &random, unsigned count) {
  ScheduleGraph graph;
  graph.predecessors.resize(count);
  for (unsigned node = 0; node + 1 < count; ++node) {
    ScheduleGraph::Tensor tensor;
    tensor.size = 1 + random() % 1000;
    tensor.producer = node;
    unsigned readers = 1 + random() % 3;
    for (unsigned r = 0; r < readers; ++r) {
      unsigned user = node + 1 + random() % (count - node - 1);
      tensor.users.push_back(user);
      graph.predecessors[user].push_back(node);
    }
    graph.tensors.push_back(tensor);
  }
  return graph;
}

} // namespace

TEST_CASE("peakBytes counts a tensor from its producer to its last reader",
          "[schedule]") {
  // 0 makes A (10), 1 makes B (5) reading nothing, 2 reads A and B.
  ScheduleGraph graph;
  graph.predecessors = {{}, {}, {0, 1}};
  graph.tensors = {{10, 0, {2}}, {5, 1, {2}}};
  CHECK(peakBytes(graph, {0, 1, 2}) == 15);
  // A tensor nobody reads lives only at its producer.
  graph.tensors.push_back({100, 2, {}});
  CHECK(peakBytes(graph, {0, 1, 2}) == 115);
}

TEST_CASE("a long-lived early producer sinks to its reader", "[schedule]") {
  // The exported order makes a big tensor (node 0) long before its only
  // reader (node 3), while nodes 1 -> 2 build and free a medium one.
  ScheduleGraph graph;
  graph.predecessors = {{}, {}, {1}, {0, 2}};
  graph.tensors = {{100, 0, {3}}, {60, 1, {2}}, {1, 2, {3}}};
  CHECK(peakBytes(graph, identity(4)) == 161);
  std::vector<unsigned> order = memoryAwareOrder(graph);
  CHECK(isTopological(graph, order));
  CHECK(peakBytes(graph, order) == 101);
}

TEST_CASE("the chosen order is topological and never above the given one",
          "[schedule][property]") {
  std::mt19937 random(20261130);
  for (int trial = 0; trial < 200; ++trial) {
    ScheduleGraph graph = randomGraph(random, 2 + random() % 40);
    std::vector<unsigned> order = memoryAwareOrder(graph);
    INFO("trial " << trial);
    REQUIRE(isTopological(graph, order));
    CHECK(peakBytes(graph, order) <=
          peakBytes(graph, identity(graph.predecessors.size())));
  }
}
